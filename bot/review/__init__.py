"""Reviews of finished deals: each person's decisions judged by the expert's search.

One package for the feature: :mod:`.deal` is one deal's review as a job of the search
pool and its sentences, :mod:`.service` the :class:`Reviewer` (which deals are reviewed,
one job a deal, and a person's accuracy over their reviewed games), :mod:`.repository`
the reviewed deals and games' accuracy in the database (:class:`AccuracyRepo`). How a
decision is judged is the players' (:mod:`bot.players.review`); the table's side (which
of its deals may be reviewed now) is :mod:`bot.tables.reviewing`. Nothing here knows
Discord: the command is ``cogs/euchre/learning.py``, the look :mod:`bot.render.review`.
"""
