"""``senet log``: the kept matches listed, shown, exported and imported from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from senet.device.cli import main
from senet.device.store import EventKind, MatchStore, Termination


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "matches.db"
    store = MatchStore.open(path)
    store.begin_match("netherworld", place="Room 61")
    for light_up in (1, 3):
        store.add(EventKind.THROW, {"light_up": light_up, "source": "camera"})
    store.add(EventKind.MOVE, {"from": 10, "to": 13})
    store.end_match(Termination.NEW_GAME)
    store.begin_match("kendall")
    store.close()
    return path


def test_list_show_and_export(store_file: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["log", "--store", str(store_file), "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2  ") and "kendall  *  0 events" in lines[0]
    assert lines[1].startswith("1  ") and "netherworld  abandoned  3 events  Room 61" in lines[1]
    assert main(["log", "--store", str(store_file), "show", "1"]) == 0
    shown = capsys.readouterr().out
    assert '[Site "Room 61"]' in shown and shown.rstrip().endswith("move 10-13")
    out = tmp_path / "all.json"
    assert main(["log", "--store", str(store_file), "export", "--all", "--format", "json", "--out", str(out)]) == 0
    assert [m["variant"] for m in json.loads(out.read_text())] == ["netherworld", "kendall"]


def test_an_export_imports_into_another_store(store_file: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for form in ("text", "json"):
        exported = tmp_path / f"all.{form}"
        assert main(["log", "--store", str(store_file), "export", "--all", "--format", form, "--out", str(exported)]) == 0
        other = tmp_path / f"other-{form}.db"
        assert main(["log", "--store", str(other), "import", str(exported)]) == 0
        assert capsys.readouterr().out.splitlines() == ["imported match 1: netherworld, abandoned, 3 events",
                                                         "imported match 2: kendall, *, 0 events"]


def test_bad_requests_are_one_line_errors(store_file: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text('[Variant "netherworld"]\n\n2026-11-24T08:30:05Z throw 1 camera\n2026-11-24T08:30:06Z move 10-12\n')
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00junk")
    cases = {
        ("log", "list"): "say which match store",
        ("log", "--store", str(tmp_path / "none.db"), "list"): "no match store at",
        ("log", "--store", str(store_file), "show", "9"): "no match 9",
        ("log", "--store", str(store_file), "import", str(broken)): "line 4",
        ("log", "--store", str(store_file), "import", str(binary)): "utf-8",
        ("log", "--store", str(store_file), "import", str(tmp_path / "missing.txt")): "No such file",
    }
    for argv, named in cases.items():
        assert main(list(argv)) == 2, argv
        err = capsys.readouterr().err
        assert named in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert [m.id for m in MatchStore.open(store_file).matches()] == [2, 1]  # nothing was imported
