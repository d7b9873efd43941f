"""An experiment: the least the rules core could cost per deal, beside OpenSpiel's euchre.

``core.py`` holds a north_american game on machine integers; ``python -m
lab.engine_floor`` compiles it with mypyc and plays it, the rules core and
OpenSpiel's C++ euchre in turns in one run, by the rules bench's loop.
"""
