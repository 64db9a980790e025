"""Side-by-side benchmarks: `python -m benchmarks [--quick] [CORPUS…]` (see benchmarks/README.md)."""
