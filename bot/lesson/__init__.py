"""The lessons: guided deals on a stacked deck, a step at a time, the same for everyone.

:mod:`.deal` is the first lesson's deal and how it is replayed to a step (no store: the
step number in a button says how far the learner is, so a lesson survives a restart).
Nothing here knows Discord: the command is ``cogs/euchre/lesson.py``, the look
:mod:`bot.render.lesson`.
"""
