"""Where records live: the packaged data, a user's record files, and output written atomically.

* :mod:`.records`: finding and reading record files (``.json``, ``.jsonl``, folders), the
  packaged data's folder, the canonical text of a record file;
* :mod:`.packaged`: the packaged volume and its indexes (``load_keys``, the listing);
* :mod:`.papers`: ``load`` (packaged or from paths, validated) and ``stream_papers``;
* :mod:`.atomic`: ``write_atomic`` (one file) and ``write_folder`` (all or nothing);
* :mod:`.inputs`: ``read_bounded``, the one bounded reader of a user's input file.

This module imports nothing: each command imports the submodule it uses (start-up).
"""
