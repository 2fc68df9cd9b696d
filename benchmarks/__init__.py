"""Benchmark scripts: run them by hand, figures go to docs/benchmarks.md."""
