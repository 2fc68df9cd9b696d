"""The lock files cover pyproject.toml with hashes, the Docker files use them, and the
monitoring files read what the bot serves."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", re.M)


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0].lower().replace("_", "-").replace(
        ".", "-")


def _pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text(encoding="utf-8")
    pins = {_name(m[1]): m[2] for m in PIN.finditer(text)}
    blocks = re.split(r"\n(?=\S)", text)
    for block in blocks:
        if "==" in block.split("\n")[0]:
            assert "--hash=sha256:" in block, block.split("\n")[0]
    return pins


def test_locks_cover_pyproject_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    assert {_name(r) for r in project["dependencies"]} <= set(runtime)
    assert {_name(r) for r in project["optional-dependencies"]["dev"]} <= set(dev)
    assert {k: dev[k] for k in runtime} == runtime  # the dev lock pins the bot's deps the same


def test_venv_script_and_docker_use_the_locks() -> None:
    venv = (ROOT / "scripts" / "_venv.sh").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements-dev.lock" in venv
    assert "cat pyproject.toml requirements-dev.lock | sha256sum" in venv  # lock change: reinstall
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    # a 3.11 patch release no older than 3.11.17, pinned by digest
    base = re.search(r"^FROM python:3\.11\.(\d+)-slim-bookworm@sha256:[0-9a-f]{64}$", docker, re.M)
    assert base is not None and int(base.group(1)) >= 17
    assert "pip install --require-hashes -r requirements.lock" in docker
    assert "pip install --no-deps" in docker
    assert 'CMD ["python", "-m", "bot", "check"]' in docker
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert "required: false" in compose
    assert "- BOT_TOKEN\n" in compose


def test_postgres_compose_and_ci() -> None:
    """The second way to run (docker-compose.postgres.yml) waits for a healthy server on a
    volume; CI installs the server the PostgreSQL tests start (they never skip there)."""
    compose = (ROOT / "docker-compose.postgres.yml").read_text(encoding="utf-8")
    assert "image: postgres:" in compose and "mafia-pg:/var/lib/postgresql/data" in compose
    assert "pg_isready" in compose and "condition: service_healthy" in compose
    assert "DATABASE_URL=postgresql://" in compose
    assert "replicas: 2" in compose  # one runs the clubs, one waits to take over
    assert "DATABASE_URL" not in (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "apt-get install" in ci and "postgresql" in ci


def test_monitoring_files_name_only_metrics_the_bot_serves() -> None:
    """deploy/: the alert rules and the dashboard read only metric names bot/metrics.py
    exports (a renamed metric would leave an alert that never fires), and the optional compose
    file turns METRICS_PORT on and mounts them."""
    from prometheus_client.parser import text_string_to_metric_families

    from bot.metrics import Metrics

    metrics = Metrics()
    metrics.updates.labels("message", "handled").inc()  # a labelled family shows once used
    metrics.requests.labels("sendMessage", "ok").inc()
    metrics.takeovers.labels("club").inc()
    metrics.skipped.labels("malformed").inc()
    served = {sample.name for family in text_string_to_metric_families(metrics.text().decode())
              for sample in family.samples}
    alerts = (ROOT / "deploy" / "prometheus" / "alerts.yml").read_text(encoding="utf-8")
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "dashboard.json").read_text("utf-8"))
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    named = set(re.findall(r"\b(?:mafia|process)_[a-z_]+", alerts + "\n".join(exprs)))
    assert named and named <= served, sorted(named - served)
    assert {"mafia_updates_total", "mafia_update_seconds_bucket",
            "mafia_telegram_requests_total", "mafia_outbox_pending",
            "mafia_outbox_oldest_seconds", "mafia_games_running", "mafia_takeovers_total",
            "mafia_database_unavailable_seconds_total"} <= served
    compose = (ROOT / "docker-compose.monitoring.yml").read_text(encoding="utf-8")
    assert "METRICS_PORT=9108" in compose and "port: 9108" in (
        ROOT / "deploy" / "prometheus" / "prometheus.yml").read_text(encoding="utf-8")
    for mounted in ("prometheus.yml", "alerts.yml", "datasources.yml", "dashboards.yml",
                    "dashboard.json"):
        assert mounted in compose


def _balanced(expr: str) -> bool:
    """Brackets paired and nested, quotes closed (a PromQL typo Prometheus would refuse)."""
    stack: list[str] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    quoted = False
    for char in expr:
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "([{":
            stack.append(char)
        elif char in pairs and (not stack or stack.pop() != pairs[char]):
            return False
    return not stack and not quoted


def test_the_alert_rules_and_the_dashboard_are_whole() -> None:
    """Prometheus' rules as Prometheus reads them (YAML: groups of rules, each alert named once
    with an expression, a severity and a summary, and a runbook entry in docs/operations.md);
    Grafana's provisioning and dashboard (every panel on the provisioned data source, in a place
    of its own, and every metric of the bot's own on some panel)."""
    import yaml

    from bot.metrics import Metrics

    deploy = ROOT / "deploy"
    rules = yaml.safe_load((deploy / "prometheus" / "alerts.yml").read_text("utf-8"))
    alerts = [rule for group in rules["groups"] for rule in group["rules"]]
    names = [rule["alert"] for rule in alerts]
    assert len(names) == len(set(names)) >= 10
    runbook = (ROOT / "docs" / "operations.md").read_text("utf-8")
    for rule in alerts:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
        assert _balanced(rule["expr"]), rule["expr"]
        assert rule["labels"]["severity"] in {"page", "warn", "info"}
        assert rule["annotations"]["summary"]
        assert f"| `{rule['alert']}` |" in runbook, rule["alert"]
    config = yaml.safe_load((deploy / "prometheus" / "prometheus.yml").read_text("utf-8"))
    assert config["rule_files"] == ["/etc/prometheus/alerts.yml"]
    [job] = config["scrape_configs"]
    assert job["job_name"] == "mafia-bot"  # the alerts' up{job="mafia-bot"}

    sources = yaml.safe_load((deploy / "grafana" / "datasources.yml").read_text("utf-8"))
    [source] = sources["datasources"]
    providers = yaml.safe_load((deploy / "grafana" / "dashboards.yml").read_text("utf-8"))
    assert providers["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards"
    dashboard = json.loads((deploy / "grafana" / "dashboard.json").read_text("utf-8"))
    panels = dashboard["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    cells = [(p["gridPos"]["x"] + dx, p["gridPos"]["y"] + dy) for p in panels
             for dx in range(p["gridPos"]["w"]) for dy in range(p["gridPos"]["h"])]
    assert len(cells) == len(set(cells))  # no panel over another
    for panel in panels:
        assert panel["datasource"]["uid"] == source["uid"]
        for target in panel["targets"]:
            assert target["refId"] and _balanced(target["expr"]), target
    shown = "\n".join(t["expr"] for p in panels for t in p["targets"])
    own = {family.name for family in Metrics().registry.collect()
           if family.name.startswith("mafia_")}
    assert {name for name in own if name not in shown} == set()

    compose = yaml.safe_load((ROOT / "docker-compose.monitoring.yml").read_text("utf-8"))
    assert {"bot", "prometheus", "grafana"} <= set(compose["services"])
    assert "METRICS_PORT=9108" in compose["services"]["bot"]["environment"]
    # Prometheus (no login) and Grafana on the machine's loopback only; the bot's /metrics
    # on compose's own network, never published
    assert "ports" not in compose["services"]["bot"]
    for service in ("prometheus", "grafana"):
        for published in compose["services"][service].get("ports", []):
            assert str(published).startswith("127.0.0.1:"), (service, published)
    grafana = compose["services"]["grafana"]["image"]
    major, minor, patch = (int(n) for n in grafana.split(":")[1].split("-")[0].split("."))
    assert (major, minor, patch) >= (13, 2, 0), grafana
