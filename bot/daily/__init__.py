"""The daily deal: one deal a day for each server, the same for everyone, with a leaderboard.

One package for the feature: :mod:`.deal` is which deal and seat a server plays on a day,
replaying a person's stored actions, and its par (what the expert makes of it);
:mod:`.service` the :class:`DailyService` (start, moves, the leaderboard, the week's
leaders); :mod:`.repository` the plays and pars in the database (:class:`DailyRepo`).
Nothing here knows Discord: the command is ``cogs/euchre/daily.py``, the look
:mod:`bot.render.daily`.
"""
