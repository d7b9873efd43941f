"""Benchmarks of the bot: scripts that print figures, never timed tests.

``python -m lab bench rules`` times the rules core, ``search`` the expert's search,
``tables`` drives N concurrent tables through the interaction harness
(:mod:`lab.bench.tables`), ``writes`` the store's saves, ``hints`` the Hint button's
answer and ``pace`` the public table's pace under Discord's rate limits.
"""
