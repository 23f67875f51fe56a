"""The rules corpus: every scenario under tests/scenarios/ run through the engine.

Each ``<topic>/<name>.json`` has an expectation ``<topic>/<name>.expect.json``:

- ``ok`` (required), ``rejected_step`` / ``error_contains`` when ``ok`` is false;
- ``state``: a *partial* state. Dicts are matched as subsets, lists exactly, except
  ``players``, given as an object keyed by player name whose values are partial
  player objects;
- ``views``: ``{player: partial state}`` checked against ``run(data, view=player)``.

Files under ``tests/scenarios/malformed/`` must raise ``MalformedScenario`` (and make
``manage.py scenario`` exit with status 2 and a one-line error). The command runs in
this process through ``call_command``; one test runs it as a shell would.

The expected values were worked out by hand from docs/rules.md and docs/scenarios.md.
No database is needed.
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "tests" / "scenarios"
MALFORMED = SCENARIOS / "malformed"

SCENARIO_FILES = sorted(
    p for p in SCENARIOS.rglob("*.json") if not p.name.endswith(".expect.json") and MALFORMED not in p.parents
)
MALFORMED_FILES = sorted(MALFORMED.glob("*.json"))
# Kobayakawa's views have their own hiding test (test_kobayakawa_scenarios.py).
COUP_SCENARIO_FILES = [p for p in SCENARIO_FILES if SCENARIOS / "kobayakawa" not in p.parents]
WORKED_EXAMPLE = SCENARIOS / "classic" / "worked_example.json"


def _id(path):
    return str(path.relative_to(SCENARIOS))


def _engine():
    from games.engine.scenario import MalformedScenario, run

    return run, MalformedScenario


# ------------------------------------------------------------------ matcher
def mismatches(expected, actual, path="state"):
    """Return a list of human-readable mismatches of ``actual`` against ``expected``."""
    out = []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        for key, exp in expected.items():
            sub = f"{path}.{key}"
            if key not in actual:
                out.append(f"{sub}: missing (expected {exp!r})")
            elif key == "players" and isinstance(exp, dict) and isinstance(actual[key], list):
                by_name = {p.get("name"): p for p in actual[key] if isinstance(p, dict)}
                for name, exp_player in exp.items():
                    if name not in by_name:
                        out.append(f"{sub}[{name}]: no such player in {sorted(by_name)}")
                    else:
                        out.extend(mismatches(exp_player, by_name[name], f"{sub}[{name}]"))
            else:
                out.extend(mismatches(exp, actual[key], sub))
        return out
    if isinstance(expected, list):
        if expected != actual:
            out.append(f"{path}: expected {expected!r}, got {actual!r}")
        return out
    if type(expected) is bool or type(actual) is bool:
        if expected is not actual:
            out.append(f"{path}: expected {expected!r}, got {actual!r}")
        return out
    if expected != actual:
        out.append(f"{path}: expected {expected!r}, got {actual!r}")
    return out


def check_result(expect, result):
    problems = []
    if result.get("ok") is not expect["ok"]:
        problems.append(
            f"ok: expected {expect['ok']!r}, got {result.get('ok')!r} (rejected: {result.get('rejected')!r})"
        )
    if not expect["ok"]:
        rejected = result.get("rejected") or {}
        if "rejected_step" in expect and rejected.get("step") != expect["rejected_step"]:
            problems.append(
                f"rejected.step: expected {expect['rejected_step']!r}, "
                f"got {rejected.get('step')!r} ({rejected.get('error')!r})"
            )
        if "error_contains" in expect:
            err = str(rejected.get("error", ""))
            if expect["error_contains"].lower() not in err.lower():
                problems.append(f"rejected.error: {err!r} does not contain {expect['error_contains']!r}")
    elif result.get("rejected") is not None:
        problems.append(f"rejected: expected null, got {result['rejected']!r}")
    problems.extend(mismatches(expect.get("state", {}), result.get("state")))
    return problems


def test_matcher_reports_paths():
    actual = {"players": [{"name": "ana", "coins": 3, "hand": ["duke"]}], "court": [1, 2]}
    assert mismatches({"players": {"ana": {"coins": 3}}, "court": [1, 2]}, actual) == []
    assert mismatches({"players": {"ana": {"coins": 4}}}, actual) == ["state.players[ana].coins: expected 4, got 3"]
    assert mismatches({"court": [2, 1]}, actual)[0].startswith("state.court:")
    assert "missing" in mismatches({"turn": "ana"}, actual)[0]
    assert mismatches({"players": {"bob": {}}}, actual)[0].startswith("state.players[bob]")


# ------------------------------------------------------------------ in-process corpus
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=_id)
def test_scenario(path):
    run, _ = _engine()
    data = json.loads(path.read_text())
    expect = json.loads(path.with_name(path.name[:-5] + ".expect.json").read_text())
    result = run(data)
    problems = check_result(expect, result)
    for viewer, exp_view in expect.get("views", {}).items():
        view_result = run(json.loads(path.read_text()), view=viewer)
        problems.extend(f"[view {viewer}] {p}" for p in mismatches(exp_view, view_result.get("state"), "state"))
    assert not problems, f"{_id(path)}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", COUP_SCENARIO_FILES, ids=_id)
def test_views_hide_other_hands_and_court(path):
    """In every scenario's end state, each player's view shows other hands and the
    court only as counts, and matches the omniscient state on public facts."""
    run, _ = _engine()
    data = json.loads(path.read_text())
    full = run(json.loads(path.read_text()))["state"]
    public = {p["name"]: p for p in full["players"]}
    problems = []
    for viewer in data["players"]:
        state = run(json.loads(path.read_text()), view=viewer)["state"]
        if not isinstance(state.get("court"), int):
            problems.append(f"[view {viewer}] court is {state.get('court')!r}")
        for p in state["players"]:
            name = p["name"]
            if name == viewer:
                if p["hand"] != public[name]["hand"]:
                    problems.append(f"[view {viewer}] own hand differs")
                continue
            if not isinstance(p["hand"], int) or p["hand"] != len(public[name]["hand"]):
                problems.append(f"[view {viewer}] {name}.hand is {p['hand']!r}")
            if isinstance(p.get("drawn"), list):
                problems.append(f"[view {viewer}] {name}.drawn is {p['drawn']!r}")
            for key in ("coins", "revealed", "alive", "faction"):
                if p.get(key) != public[name].get(key):
                    problems.append(f"[view {viewer}] {name}.{key} differs")
        for key in ("turn", "awaiting", "winner", "reserve"):
            if state.get(key) != full.get(key):
                problems.append(f"[view {viewer}] {key} differs")
        pending = state.get("pending", {})
        if "shown" in pending and viewer not in (pending["player"], pending["target"]):
            problems.append(f"[view {viewer}] sees the card shown in an examination")
    assert not problems, f"{_id(path)}:\n  " + "\n  ".join(problems)


def test_every_scenario_has_an_expectation():
    missing = [_id(p) for p in SCENARIO_FILES if not p.with_name(p.name[:-5] + ".expect.json").exists()]
    assert not missing
    assert len(SCENARIO_FILES) >= 80


@pytest.mark.parametrize("path", MALFORMED_FILES, ids=_id)
def test_malformed(path):
    run, MalformedScenario = _engine()
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError:
        return  # bad JSON: checked through the command below
    with pytest.raises(MalformedScenario):
        run(data)


def test_malformed_is_value_error():
    _, MalformedScenario = _engine()
    assert issubclass(MalformedScenario, ValueError)


# ------------------------------------------------------------------ the command
def _command(*args):
    """``manage.py scenario ARGS`` in this process: (exit status, stdout, stderr)."""
    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("scenario", *map(str, args), stdout=out, stderr=err)
    except SystemExit as stopped:
        return stopped.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def _assert_one_line_error(status, stdout, stderr):
    assert status == 2
    assert stdout.strip() == ""
    err = stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, stderr
    assert "Traceback" not in stderr


def test_command_worked_example():
    status, stdout, stderr = _command(WORKED_EXAMPLE)
    assert status == 0, stderr
    out = json.loads(stdout)
    expect = json.loads((SCENARIOS / "classic" / "worked_example.expect.json").read_text())
    assert check_result(expect, out) == []
    assert "events" not in out


def test_command_worked_example_view():
    status, stdout, stderr = _command(WORKED_EXAMPLE, "--view", "ambar")
    assert status == 0, stderr
    out = json.loads(stdout)
    assert out["ok"] is True
    assert out["state"]["court"] == 9
    players = {p["name"]: p for p in out["state"]["players"]}
    assert players["ambar"]["hand"] == ["contessa", "duke"]
    assert players["dante"]["hand"] == 1
    assert "captain" not in json.dumps(players["dante"].get("hand"))


def test_command_worked_example_events():
    status, stdout, stderr = _command(WORKED_EXAMPLE, "--events")
    assert status == 0, stderr
    out = json.loads(stdout)
    assert out["ok"] is True
    assert isinstance(out["events"], list) and out["events"]


@pytest.mark.parametrize("path", MALFORMED_FILES, ids=_id)
def test_command_malformed(path):
    _assert_one_line_error(*_command(path))


def test_command_a_file_nested_too_deeply_is_malformed(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    status, stdout, stderr = _command(path)
    _assert_one_line_error(status, stdout, stderr)
    assert stderr.strip() == f"error: {path} is nested too deeply to be a scenario"


def test_command_rejected_step_exits_zero():
    status, stdout, stderr = _command(SCENARIOS / "classic" / "wrong_turn_rejected.json")
    assert status == 0, stderr
    out = json.loads(stdout)
    assert out["ok"] is False and out["rejected"]["step"] == 0


def test_manage_py_scenario_exit_status_and_output():
    """The command as a shell runs it: a good file prints its result as JSON and
    exits 0; a malformed one prints a one-line error and exits 2."""

    def manage_py_scenario(path):
        return subprocess.run(
            [sys.executable, "manage.py", "scenario", str(path)], cwd=REPO, capture_output=True, text=True, timeout=120
        )

    good = manage_py_scenario(WORKED_EXAMPLE)
    assert good.returncode == 0, good.stderr
    expect = json.loads((SCENARIOS / "classic" / "worked_example.expect.json").read_text())
    assert check_result(expect, json.loads(good.stdout)) == []

    bad = manage_py_scenario(MALFORMED_FILES[0])
    _assert_one_line_error(bad.returncode, bad.stdout, bad.stderr)
