"""docs/performance.md is written by several benchmarks: the speed run (`python -m benchmarks`) writes the
top, and each quality benchmark (`python -m benchmarks.<name>`) owns one marked section of its own, which a
later speed run keeps. A section is the text between `<!-- section:NAME -->` and `<!-- /section:NAME -->`."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PERFORMANCE_MD = ROOT / "docs" / "performance.md"
_SECTION = re.compile(r"<!-- section:(?P<name>[\w-]+) -->\n.*?<!-- /section:(?P=name) -->\n", re.S)


def sections(text: str) -> dict[str, str]:
    """Every marked section of a report, by name, markers included."""
    return {m.group("name"): m.group(0) for m in _SECTION.finditer(text)}


def write_section(name: str, lines: list[str], md: Path = PERFORMANCE_MD) -> None:
    """Replace (or append) the section `name` of the report with `lines`."""
    block = f"<!-- section:{name} -->\n" + "\n".join(lines).rstrip() + "\n" + f"<!-- /section:{name} -->\n"
    text = md.read_text() if md.exists() else "# Performance\n"
    old = sections(text).get(name)
    text = text.replace(old, block) if old else text.rstrip() + "\n\n" + block
    md.write_text(text)


def keep_sections(new_text: str, md: Path) -> str:
    """The speed report's new text, with the quality sections of the report it replaces kept at its end."""
    kept = sections(md.read_text()) if md.exists() else {}
    return new_text.rstrip() + "\n" + "".join("\n" + block for block in kept.values())
