"""``apimap coverage``: the public surface of torch and torchvision against the records.

:mod:`.compute` classifies every public name (record, 功能缺失, alias,
unclassified); :mod:`.usage` reads and rebuilds the usage counts that rank the
contributors' worklist (``--todo``); :mod:`.command` is the command line.
"""
