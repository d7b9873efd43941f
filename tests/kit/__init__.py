"""The test kit: what the tests and the lab share to play Discord's part.

``contract`` (with ``limits`` and ``commands``): Discord's documented payload limits,
checked on every request by both fakes of Discord, the interaction harness
(``tests/kit/harness``) and the loopback fake (``tests/kit/fake_discord.py``).

``oauth``: Discord's OAuth2 token, ``/users/@me`` and Activity-instance endpoints, faked on
loopback for the Activity's sign-in (its tests and its browser benchmark).
"""
