"""A plain `pip install .` (a wheel, not an editable install) must carry the corpus and the resources, the
third-party ones with their notice."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_carries_corpus_and_resources(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    (wheel,) = tmp_path.glob("readinglist-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "readinglist/_data/corpus/icml2026.txt" in names
    assert "readinglist/_data/resources/icons/readinglist.svg" in names
    assert "readinglist/_data/resources/io.github.readinglist.readinglist.desktop" in names
    # the derived titles' word table, and the notice naming its source and licence (CC BY 4.0 asks for it)
    assert "readinglist/_data/resources/title_words.tsv" in names
    assert "readinglist/_data/resources/NOTICE.md" in names
    assert "readinglist/_data/resources/abstract_dictionary.txt" in names  # every stored abstract needs it
    assert any(n.endswith("entry_points.txt") for n in names)
    assert not any(n.startswith("tests/") for n in names)
