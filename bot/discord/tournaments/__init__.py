"""Tournament events on Discord: the live event message, its threads, lists and roles.

:mod:`.view` is the event desk (the event's message, each table's thread, notices);
:mod:`.lists` answers an event's whole lists privately, page by page; :mod:`.reminder` is
Discord's scheduled event of a timed tournament; :mod:`.champion_roles` gives and takes
the champion role.
"""
