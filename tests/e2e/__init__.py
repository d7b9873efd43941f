"""Layer 3 of the testing plan: the unmodified bot as a separate process against a fake Discord.

* :mod:`.fake_discord`: Discord on 127.0.0.1 (REST and gateway websocket, aiohttp),
  recording everything the bot sends and delivering members' slash commands and clicks;
* :mod:`.bot_process`: ``python -m bot`` in a child process pointed at the fake through a
  generated ``sitecustomize.py`` (the bot's code is not touched), started, stopped, and
  ``kill -9``-ed;
* :mod:`.players`: simulated members who read the table message and their private hands
  and click what a person may click;
* :mod:`.test_real_process`: log-in and command sync, gateway RESUME, a whole game, and
  ``kill -9`` at several moments of a game ending with the record of an uninterrupted run.

Every test here is marked ``e2e``: ``pytest -m "not e2e"`` leaves them out.
"""
