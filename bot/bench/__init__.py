"""Benchmarks of the whole bot: scripts that print figures, never timed tests.

``python -m bot.bench tables --tables N`` drives N concurrent tables through the
interaction harness (:mod:`bot.bench.tables`).
"""
