"""``apimap scan``: which torch and torchvision APIs a project uses, and how hard each is to move.

Files are read with :mod:`ast` (never imported or run); :mod:`.resolver`
resolves names through each file's imports and scopes, :mod:`.project`
follows re-exports through the project's own modules, :mod:`.public` maps
paths to public names with the surface table, :mod:`.classify` finds the
record of each API through :mod:`.knowledge`, :mod:`.runner` puts it together
in a process pool and :mod:`.writers` print the :mod:`.report`.
"""
