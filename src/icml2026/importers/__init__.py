"""Importers: other formats into canonical records.

:mod:`icml2026.importers.bibtex` reads BibTeX (PMLR's volume files in
particular).  Importers return the same :class:`~icml2026.model.Paper` records
that :func:`icml2026.load` gives, so every exporter accepts them, and they
report what they could not convert as data instead of failing the whole file.
"""
