"""The laboratory: what measures and trains the bot, never shipped with it.

The arena and its yardsticks (``lab.players``), the benchmarks (``lab.bench``), the
training of the expert's learnt models and the adapters that seat other people's
euchre computers. It runs from a source checkout with the ``dev`` extra
(``python -m lab --help``); it may import ``bot``, and nothing in ``bot`` imports it.
"""
