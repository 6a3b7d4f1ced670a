"""Schreiber's referee: the rules engine for Mulatschak, Mura and Müller Matz.

Pure Python, standard library only, no I/O. It decides; the scorepad orchestrates.
"""
