"""``icml2026 update`` and the data folder under hostile input (issue 28).

What a download may not do: replace the stored layer with a short file, change
most of the volume, move ids between papers, point links elsewhere, leak the
credentials of its URL, print control characters, run past its time-out, or
put TeX into a user's PDF.  What a damaged layer may not do: stop any command.

The downloads are PMLR's published file generated from the volume's source
BibTeX (``tests/pmlr_server.py``), served by a real HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pmlr_server import PmlrServer, cut_at_entries, published_from_sources, source_entries, source_entry

import icml2026
from icml2026.cli import main
from icml2026.tex_safety import math_is_safe, printable
from icml2026.update import layer as L

LAYER = Path("corrections") / "pmlr-v306.json"
ONE_FIX = {"abas26a": {"pages": "1--20"}}


class Run:
    """One in-process ``icml2026`` run: exit code, standard output, standard error."""

    def __init__(self, capsys: pytest.CaptureFixture[str], *args: str) -> None:
        capsys.readouterr()
        try:
            self.code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            self.code = int(exc.code or 0)
        captured = capsys.readouterr()
        self.out, self.err = captured.out, captured.err

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out[:300]!r}, err={self.err[:600]!r})"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(L.ENV_DIR, str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def good_layer(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A stored layer holding one correction: what every refused download must leave in place."""
    folder = tmp_path_factory.mktemp("good")
    path = folder / "bibliography.bib"
    path.write_text(published_from_sources(overrides=ONE_FIX), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(L.ENV_DIR, str(folder / "data"))
        assert main(["update", "--file", str(path)]) == 0
    return (folder / "data" / LAYER).read_bytes()


@pytest.fixture
def stored(data_dir: Path, good_layer: bytes) -> Path:
    path = data_dir / LAYER
    path.parent.mkdir(parents=True)
    path.write_bytes(good_layer)
    return path


def ids() -> list[str]:
    return [e.pmlr_id for e in source_entries()[1]]


def write(tmp_path: Path, text: str, name: str = "bibliography.bib") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- short downloads

@pytest.mark.parametrize("share", [0.95, 0.91])
def test_a_file_cut_at_an_entry_boundary_is_refused(share: float, stored: Path, good_layer: bytes, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    text = cut_at_entries(published_from_sources(), share)
    run = Run(capsys, "update", "--file", write(tmp_path, text))
    assert run.code == 1 and run.out == ""
    assert "paper entries, expected about 6552: an incomplete file" in run.err and len(run.err.splitlines()) == 1
    assert stored.read_bytes() == good_layer


@pytest.fixture(scope="module")
def server() -> Iterator[PmlrServer]:
    with PmlrServer(published_from_sources()) as running:
        yield running


@pytest.mark.parametrize("mode", ["short-length", "gzip-cut"])
def test_a_short_body_over_http_is_refused(mode: str, stored: Path, good_layer: bytes, server: PmlrServer,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    run = Run(capsys, "update", "--url", server.url(mode), "--timeout", "60")
    assert run.code == 1, run
    assert re.search(r"only [0-9]+ paper entries, expected about 6552|the connection broke off", run.err), run
    assert stored.read_bytes() == good_layer


def test_headers_dripped_slowly_are_bounded_by_the_timeout(stored: Path, good_layer: bytes, server: PmlrServer,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Each header line arrives well within the read time-out; the whole answer does not within --timeout."""
    run = Run(capsys, "update", "--url", server.url("drip-headers"), "--timeout", "2")
    assert run.code == 1, run
    assert run.err.startswith(f"icml2026: error: {server.url('drip-headers')}: no complete answer within 2 s "
                              "(time-out)"), run
    assert stored.read_bytes() == good_layer


def test_every_id_changed_matches_no_paper_and_is_refused(stored: Path, good_layer: bytes, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    text = published_from_sources(keys={i: i + "x" for i in ids()})
    run = Run(capsys, "update", "--check", "--file", write(tmp_path, text))
    assert run.code == 1, run
    # Some renamed ids are other papers' ids (wang26a → wang26ax): few, not none.
    assert re.search(r"refused, it does not look like PMLR's corrections: only [0-9]{1,3} of its entries are "
                     "papers of the volume", run.err), run
    assert stored.read_bytes() == good_layer


# --------------------------------------------------------------------------- suspicious changes

def _every(field: str, change: Any) -> dict[str, dict[str, str]]:
    return {e.pmlr_id: {field: change(e.fields[field])} for e in source_entries()[1]}


def _shift(pages: str) -> str:
    first, last = (int(n) for n in pages.split("--"))
    return f"{first + 100_000}--{last + 100_000}"


def _swapped_neighbours(pairs: int) -> dict[str, str]:
    keys: dict[str, str] = {}
    every = ids()
    for n in range(0, 2 * pairs, 2):
        a, b = every[10 + 3 * n], every[10 + 3 * n + 1]
        keys[a], keys[b] = b, a
    return keys


SUSPICIOUS = {
    "every title": ({"overrides": _every("title", lambda t: t + " (revised)")}, "it changes 6,552 papers (100%"),
    "pages shifted": ({"overrides": _every("pages", _shift)}, "it changes 6,552 papers (100%"),
    "swapped ids": ({"keys": _swapped_neighbours(200)},
                    "400 paper ids name the title and authors of another paper of the volume"),
    "link elsewhere": ({"overrides": {"abas26a": {"url": "https://evil.example/v306/abas26a.html"}}},
                       "1 link points away from PMLR: pmlr-v306-abas26a proceedings link https://evil.example/"),
    "pdf elsewhere": ({"overrides": {"abas26a": {"pdf": "https://evil.example/abas26a.pdf"}}},
                      "1 link points away from PMLR"),
}


@pytest.mark.parametrize("case", sorted(SUSPICIOUS))
def test_suspicious_downloads_are_refused_with_the_reason(case: str, stored: Path, good_layer: bytes, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    options, reason = SUSPICIOUS[case]
    run = Run(capsys, "update", "--file", write(tmp_path, published_from_sources(**options)))
    assert run.code == 1 and run.out == "", run
    assert "refused, it does not look like PMLR's corrections: " in run.err and reason in run.err, run
    assert "(--force uses it all the same); nothing was changed" in run.err and len(run.err.splitlines()) == 1
    assert stored.read_bytes() == good_layer


def test_duplicate_ids_are_refused(stored: Path, good_layer: bytes, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = published_from_sources()
    start = text.index("@InProceedings{pmlr-v306-abbadi26a,")
    block = text[start:text.index("\n}\n", start) + 3]
    run = Run(capsys, "update", "--file", write(tmp_path, text + "\n\n" + block))
    assert run.code == 1, run
    assert "1 id occurs more than once: pmlr-v306-abbadi26a" in run.err
    assert stored.read_bytes() == good_layer


def test_force_uses_a_suspicious_download_and_says_why(data_dir: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    options, reason = SUSPICIOUS["swapped ids"]
    run = Run(capsys, "update", "--force", "--file", write(tmp_path, published_from_sources(**options)))
    assert run.code == 0, run
    assert f"--force: used although {reason}" in run.err
    assert (data_dir / LAYER).exists()


# --------------------------------------------------------------------------- what is printed and stored

def test_credentials_of_the_url_are_never_printed_or_stored(data_dir: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    with PmlrServer(published_from_sources(overrides=ONE_FIX)) as running:
        url = running.url("ok").replace("http://", "http://reader:s3cret-pass@")
        run = Run(capsys, "update", "--url", url)
        assert run.code == 0, run
        assert running.requests[-1].headers.get("authorization", "").startswith("Basic ")  # still used
        failed = Run(capsys, "update", "--url", url.replace("/ok/", "/404/"))
    assert failed.code == 1
    stored = (data_dir / LAYER).read_text(encoding="utf-8")
    for text in (run.out, run.err, failed.err, stored):
        assert "s3cret" not in text and "reader:" not in text
    assert running.url("ok") in stored


def test_control_and_bidi_characters_are_shown_not_printed(data_dir: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    title = source_entry("abbas26a").fields["title"]
    bidi, escape = title.replace("A lazy,", "A \u202egnp.exe\u202c lazy,"), title.replace("lazy", "lazy\x1b[2J")
    text = published_from_sources(overrides={"abbas26a": {"title": bidi}, "abas26a": {"title": escape}})
    run = Run(capsys, "update", "--check", "--file", write(tmp_path, text))
    assert run.code == 0, run
    assert "\u202e" not in run.out + run.err and "\x1b" not in run.out + run.err
    assert "A <U+202E>gnp.exe<U+202C> lazy" in run.out  # the change is shown, its override visible
    assert "pmlr-v306-abas26a: /title: " in run.err  # the importer refuses the escape, and says so
    assert printable("a\u202eb\u200bc\x07") == "a<U+202E>b<U+200B>c<U+0007>"


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0", "1e12"])
def test_max_size_and_timeout_must_be_finite_and_bounded(value: str, data_dir: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    for option in ("--max-size", "--timeout"):
        run = Run(capsys, "update", "--check", option, value, "--file", "x.bib")
        assert run.code == 2 and "Traceback" not in run.err
        assert f"argument {option}: must be a number above 0 and at most" in run.err


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/null", "folder"])
def test_a_file_that_is_not_a_regular_file_is_refused(name: str, data_dir: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    target = name if name.startswith("/") else str(tmp_path)
    what = "not a regular file" if name.startswith("/") else "a folder"  # the one reader's words (icml2026.store.inputs)
    run = Run(capsys, "update", "--file", target)
    assert run.code == 1 and run.err == f"icml2026: error: {target}: cannot read: {what}; nothing was changed\n"


# --------------------------------------------------------------------------- TeX from the network

EVIL_MATH = {
    "catalog": r"\pdfcatalog{/OpenAction << /S /JavaScript /JS (app.alert(1)) >>}",
    "filedump": r"\pdffiledump offset 0 length 40 {/etc/passwd}",
    "obj": r"\pdfobj{<< /S /JavaScript /JS (app.alert(2)) >>}",
    "literal": r"\pdfliteral{0 0 m}",
    "ifexists": r"\IfFileExists{/etc/passwd}{x}{y}",
    "stop": r"x \stop",
    "batchmode": r"\batchmode x",
    "startlink": r"\pdfstartlink user{/Subtype /Link /A << /S /JavaScript /JS (app.alert(3)) >>}x",
}


@pytest.mark.parametrize("case", sorted(EVIL_MATH))
def test_math_outside_the_whitelist_is_never_verbatim(case: str) -> None:
    assert not math_is_safe(EVIL_MATH[case], ascii_only=True)
    assert math_is_safe(r"\mathcal{O}(n \log n)", ascii_only=True)  # what titles of the volume use


def test_a_downloaded_title_with_tex_outside_the_whitelist_is_not_stored(data_dir: Path, tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    title = source_entry("abbas26a").fields["title"] + " ${}$".format(EVIL_MATH["catalog"])
    text = published_from_sources(overrides={"abbas26a": {"title": title}, **ONE_FIX})
    run = Run(capsys, "update", "--file", write(tmp_path, text))
    assert run.code == 0, run
    assert "pmlr-v306-abbas26a: correction not stored" in run.err and "\\pdfcatalog" in run.err
    lay = L.read_layer()
    assert lay is not None and {c.paper for c in lay.corrections} == {"pmlr-v306-abas26a"}


def _hand_edited_layer(path: Path, title: str) -> None:
    paper = icml2026.load(corrections=False)["abbas26a"]
    data = {"format": L.FORMAT, "format_version": L.FORMAT_VERSION, "proceedings": "pmlr-v306",
            "package_version": icml2026.__version__, "source": {"name": "hand-edited", "retrieved": "2026-12-01"},
            "sha256": "0" * 64, "bytes": 1, "entries": 1, "http": None, "unknown": [], "missing": [],
            "corrections": {paper.id: {"/title": {"old": paper.title, "new": title}}}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.skipif(not (shutil.which("pdflatex") and shutil.which("bibtex")), reason="needs pdfLaTeX and BibTeX")
def test_tex_from_a_layer_never_reaches_the_pdf(data_dir: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A hand-edited layer puts every attack into one title; pdfLaTeX (-no-shell-escape, plainnat)
    compiles the exported entry; the PDF has no action, no JavaScript and no file's contents."""
    evil = " ".join(f"${value}$" for value in EVIL_MATH.values() if "stop" not in value)
    _hand_edited_layer(data_dir / LAYER, "Boost " + evil)
    assert icml2026.load()["abbas26a"].title == "Boost " + evil  # the layer is used: valid markup
    run = Run(capsys, "export", "-f", "bibtex", "--keys", "abbas26a", "-o", str(tmp_path / "refs.bib"))
    assert run.code == 0, run
    exported = (tmp_path / "refs.bib").read_text(encoding="ascii")
    assert "$\\pdf" not in exported and "\\$" in exported  # written as text, dollars included
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{natbib}\\usepackage{amsmath,amssymb}\n"
        "\\begin{document}\\nocite{*}\\bibliographystyle{plainnat}\\bibliography{refs}\\end{document}\n",
        encoding="ascii")
    for command in (["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "doc.tex"], ["bibtex", "doc"],
                    ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "doc.tex"]):
        subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=120, check=False)
    pdf = (tmp_path / "doc.pdf").read_bytes()
    assert b"Boost" in (tmp_path / "doc.bbl").read_bytes()
    assert b"/OpenAction" not in pdf and b"/JavaScript" not in pdf and b"/JS" not in pdf
    assert b"root:" not in pdf and b"/bin/" not in pdf


# --------------------------------------------------------------------------- damaged layers

DAMAGED = {
    "truncated": lambda good: good[: len(good) // 2],
    "empty": lambda good: b"",
    "binary": lambda good: bytes(range(256)) * 4,
    "array": lambda good: b"[" + good + b"]",
    "deep": lambda good: b"[" * 100_000 + b"]" * 100_000,
    "number title": lambda good: _edited(good, "/title", 42),
    "string authors": lambda good: _edited(good, "/authors", "Jane Doe"),
    "no corrections": lambda good: json.dumps({**json.loads(good), "corrections": [1, 2]}).encode(),
}


def _edited(good: bytes, pointer: str, value: Any) -> bytes:
    data = json.loads(good)
    data["corrections"] = {"pmlr-v306-abbas26a": {pointer: {"old": None, "new": value}}}
    return json.dumps(data).encode()


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_damaged_layer_is_ignored_with_one_warning(case: str, stored: Path, good_layer: bytes, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    stored.write_bytes(DAMAGED[case](good_layer))
    packaged = icml2026.load(corrections=False)
    for args in (["list", "--limit", "2"], ["show", "abas26a"], ["export", "-f", "jsonl", "--keys", "abas26a"]):
        L._WARNED.clear()  # once per process: each run here stands for one process
        run = Run(capsys, *args)
        assert run.code == 0, (args, run)
        assert len(run.err.splitlines()) == 1, run
        assert run.err.startswith(f"icml2026: warning: {stored}: ") and "'icml2026 update --revert'" in run.err
    assert json.loads(run.out) == packaged["abas26a"].to_dict()  # the packaged data is used
    # update replaces the damaged layer.
    path = write(tmp_path, published_from_sources(overrides=ONE_FIX))
    run = Run(capsys, "update", "--file", path)
    assert run.code == 0, run
    assert "damaged corrections layer" in run.err and "it is replaced" in run.err
    assert L.read_layer() is not None and json.loads(stored.read_bytes())["corrections"]
