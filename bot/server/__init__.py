"""A server's configuration: its house rules and settings, and who may change them.

- :mod:`.settings`: :class:`~.settings.ServerSettings`, one model holding each setting
  as one typed field (its default, its description and the sentence that shows its
  value), and the check of who may change it. Pure pydantic: the store saves this
  model as it is.
- :mod:`.fields`: what a rule or setting accepts, read from its field, and the value a
  person typed turned into it (or a sentence saying why not).
- :mod:`.overrides`: the rules a host asks for at ``/euchre new``.
- :mod:`.sources`: where the table service finds a server's settings (the same for
  every server, or the database, where admins change them).

The modules are imported by name; this package imports none of them, so the store can
use :mod:`.settings` while :mod:`.sources` uses the store.
"""
