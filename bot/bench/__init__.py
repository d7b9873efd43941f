"""Benchmarks of the whole bot: scripts that print figures, never timed tests.

``python -m bot.bench tables --tables N`` drives N concurrent tables through the
interaction harness (:mod:`bot.bench.tables`); ``python -m bot.bench hints`` times the
Hint button's answer (:mod:`bot.bench.hints`).
"""
