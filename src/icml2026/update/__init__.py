"""``icml2026 update``: corrections from PMLR's published bibliography, kept in the user's data folder.

* :mod:`.layer` — the corrections layer: where it lives, its file format, and
  applying it to the packaged records (standard library only: ``load()`` uses it).
* :mod:`.download` — fetching the file over HTTPS like a good citizen.
* :mod:`.baseline` — what the source entry of each packaged paper said (a hash
  per field, ``source-hashes.tsv``): a correction is a difference from it.
* :mod:`.published` — verifying a download, finding PMLR's changes, curating
  them as the build does, refusing what looks wrong, and building, checking or
  reverting the layer.

This module imports nothing itself, so importing the layer stays cheap.
"""
