"""A server's house rules and settings, who may change them, and each person's preferences.

- :mod:`.settings`: :class:`~.settings.ServerSettings`, one model holding each setting
  as one typed field (its default, its description and the sentence that shows its
  value), and the check of who may change it. Pure pydantic: the store saves this
  model as it is.
- :mod:`.fields`: what a rule or setting accepts, read from its field, and the value a
  person typed turned into it (or a sentence saying why not).
- :mod:`.overrides`: the rules a host asks for at ``/euchre new``.
- :mod:`.preferences`: :class:`~.preferences.Preferences`, one person's preferences,
  the same kind of fields, kept per person across every server;
  :mod:`.preference_sources`: where they are kept and a typed change of one.
- :mod:`.sources`: what the table service reads a server's settings from
  (:class:`~.sources.FixedSettings`, the same for every server; the database's are
  ``bot.store.server_settings.StoredSettings``) and what a change says.

A plain model below the store and the tables: nothing here imports either. The modules
are imported by name.
"""
