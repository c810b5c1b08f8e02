"""BibTeX's own rules, once, for every module that reads or writes it.

:mod:`.names` splits a name list (``author``, ``editor``) on ``and`` as BibTeX does; the
importer (``icml2026 import``), ``fix`` and ``check`` use it.
"""
