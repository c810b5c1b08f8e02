"""``icml2026 update``: corrections from PMLR's published bibliography, kept in the user's data folder.

* :mod:`.layer` — the corrections layer: where it lives, its file format, and
  applying it to the packaged records (standard library only: ``load()`` uses it).
* :mod:`.download` — fetching the file over HTTPS like a good citizen.
* :mod:`.published` — verifying a download, comparing it with the packaged
  records, and building, checking or reverting the layer.

This module imports nothing itself, so importing the layer stays cheap.
"""
