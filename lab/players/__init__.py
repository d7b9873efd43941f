"""Measuring and training the computer players: the arena, its yardsticks and training.

``python -m lab arena`` plays duplicate matches between levels; ``ceiling``, ``deals``
and ``bid-regret`` are yardsticks of the expert's play; ``train-bidding`` and
``train-loners`` learn the expert's shipped models; ``outside`` seats other people's
euchre computers through the player protocol.
"""
