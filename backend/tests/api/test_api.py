from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nasplan.domain.platform import EXAMPLE_PLATFORM


def _platform(**changes: dict[str, Any]) -> dict[str, Any]:
    body = copy.deepcopy(EXAMPLE_PLATFORM)
    for section, values in changes.items():
        body[section].update(values)
    return body


def test_health(client: TestClient) -> None:
    body = client.get("/api/v1/health").json()
    assert body["status"] == "ok"
    assert body["kb_version"]


def test_plan_follows_the_contract(client: TestClient) -> None:
    response = client.post("/api/v1/plans", json=EXAMPLE_PLATFORM)
    assert response.status_code == 200
    plan = response.json()
    assert plan["kb_version"] and plan["as_of"]
    roles = {m["role"] for m in plan["mounts"]}
    assert {"data", "redo", "archive", "oracle_home"} <= roles
    # Explanations are served once per knowledge base, not repeated in every plan.
    assert plan["rules"] == {}
    assert response.headers["link"] == '</api/v1/knowledge/explanations>; rel="describedby"'
    explained = client.get("/api/v1/knowledge/explanations").json()
    assert explained["kb_version"] == plan["kb_version"]
    for section in ("volumes", "mounts", "settings"):
        for item in plan[section]:
            assert item["rules"]
            assert all(rule in explained["rules"] for rule in item["rules"])
    assert all(f["severity"] in ("error", "warning", "info") for f in plan["findings"])
    assert plan["expectations"]["single_stream_mb_s"] > 0
    assert plan["mount_table"]["path"] == "/etc/vfstab"
    assert len(plan["mount_table"]["entries"]) == len(plan["mounts"])


def test_explain_full_inlines_the_same_explanations(client: TestClient) -> None:
    short = client.post("/api/v1/plans", json=EXAMPLE_PLATFORM)
    full = client.post("/api/v1/plans?explain=full", json=EXAMPLE_PLATFORM)
    assert full.status_code == 200 and "link" not in full.headers
    inline = full.json()["rules"]
    explained = client.get("/api/v1/knowledge/explanations").json()["rules"]
    assert inline and all(inline[rule_id] == explained[rule_id] for rule_id in inline)
    used = {
        r
        for section in ("volumes", "mounts", "settings")
        for i in full.json()[section]
        for r in i["rules"]
    }
    assert used <= set(inline)
    # Apart from the explanations, the two forms are the same plan.
    assert {**full.json(), "rules": {}} == short.json()
    assert len(short.content) < len(full.content) / 2
    bad = client.post("/api/v1/plans?explain=some", json=EXAMPLE_PLATFORM)
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "explain"]


def test_explanations_carry_an_etag_and_answer_304(client: TestClient) -> None:
    first = client.get("/api/v1/knowledge/explanations")
    etag = first.headers["etag"]
    assert first.status_code == 200 and "max-age" in first.headers["cache-control"]
    again = client.get("/api/v1/knowledge/explanations", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    other = client.get("/api/v1/knowledge/explanations", headers={"If-None-Match": '"x"'})
    assert other.status_code == 200


def test_plans_are_compressed_on_the_wire(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans", json=EXAMPLE_PLATFORM, headers={"Accept-Encoding": "gzip"}
    )
    assert response.headers["content-encoding"] == "gzip"
    assert response.json()["mounts"]  # the client decompresses it
    raw = client.post("/api/v1/plans", json=EXAMPLE_PLATFORM, headers={"Accept-Encoding": ""})
    assert "content-encoding" not in raw.headers


def test_as_of_changes_the_advice(client: TestClient) -> None:
    old = client.post("/api/v1/plans", json={**EXAMPLE_PLATFORM, "as_of": "2005-06-01"}).json()
    new = client.post("/api/v1/plans", json=EXAMPLE_PLATFORM).json()
    minra = {
        p["as_of"]: next(s["value"] for s in p["settings"] if s["key"] == "minra")
        for p in (old, new)
    }
    assert minra["2005-06-01"] == "on"
    assert minra[new["as_of"]] == "off"
    assert any(s["rule"] == "NTAP-MINRA-ON-OLTP" for s in new["superseded"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_platform(host={"os": "windows"}), ["body", "host", "os"]),
        (_platform(host={"os_version": "12"}), ["body", "host", "os_version"]),
        (_platform(network={"nic_gbps": "fast"}), ["body", "network", "nic_gbps"]),
        (_platform(network={"nic_gbps": 2}), ["body", "network", "nic_gbps"]),
        (_platform(layout={"filer_host": "filer 01"}), ["body", "layout", "filer_host"]),
        (_platform(layout={"db_name": "PROD;rm -rf /"}), ["body", "layout", "db_name"]),
        (_platform(oracle={"version": "nineteen"}), ["body", "oracle", "version"]),
        (_platform(oracle={"version": "7.3.4"}), ["body", "oracle", "version"]),
        (_platform(filer={"os_version": "8.3"}), ["body", "filer", "os_version"]),
        (_platform(host={"hostname": "db host"}), ["body", "host", "hostname"]),
        ({**EXAMPLE_PLATFORM, "as_of": "2999-01-01"}, ["body", "as_of"]),
        ({k: v for k, v in EXAMPLE_PLATFORM.items() if k != "layout"}, ["body", "layout"]),
        ({**EXAMPLE_PLATFORM, "extra": 1}, ["body", "extra"]),
    ],
)
def test_bad_input_names_the_field(
    client: TestClient, body: dict[str, Any], field: list[str]
) -> None:
    response = client.post("/api/v1/plans", json=body)
    assert response.status_code == 422
    assert field in [d["loc"] for d in response.json()["detail"]]


def test_malformed_json_is_422(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422


def test_impossible_combination_is_200_with_error(client: TestClient) -> None:
    response = client.post("/api/v1/plans", json=_platform(oracle={"dnfs": True}))
    assert response.status_code == 200
    errors = [f for f in response.json()["findings"] if f["severity"] == "error"]
    assert errors and errors[0]["rule"] == "DNFS-REQUIRES-11G"


def test_body_size_limit(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans", content=b"x" * 3_000_000, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_knowledge_index_and_filters(client: TestClient) -> None:
    full = client.get("/api/v1/knowledge").json()
    assert full["kb_version"] and len(full["rules"]) >= 90
    assert {"id", "title"} <= set(full["rules"][0])
    mounts = client.get("/api/v1/knowledge", params={"category": "mount"}).json()["rules"]
    assert mounts and all(r["category"] == "mount" for r in mounts)
    minra = client.get("/api/v1/knowledge", params={"q": "minra"}).json()["rules"]
    assert {"NTAP-MINRA-ON-OLTP", "NTAP-MINRA-OFF"} <= {r["id"] for r in minra}
    tr3496 = client.get("/api/v1/knowledge", params={"source": "tr-3496"}).json()["rules"]
    assert tr3496 and all("tr-3496" in r["sources"] for r in tr3496)


def test_knowledge_index_lists_each_rules_conditions(client: TestClient) -> None:
    rules = {r["id"]: r for r in client.get("/api/v1/knowledge").json()["rules"]}
    for rule_id in ("SOL-MNT-FORCEDIRECTIO-DATA", "COMPAT-NFS41-SCOPE"):
        detail = client.get(f"/api/v1/knowledge/rules/{rule_id}").json()["when"]
        assert rules[rule_id]["when"] == detail
    assert rules["SOL-MNT-FORCEDIRECTIO-DATA"]["when"]["os"] == ["solaris"]
    assert not any(rules["COMPAT-BEFORE-FIRST-SOURCE"]["when"].values())


def test_rule_detail_and_history(client: TestClient) -> None:
    rule = client.get("/api/v1/knowledge/rules/NTAP-MINRA-ON-OLTP").json()
    assert rule["superseded_by"] == ["NTAP-MINRA-OFF"]
    assert [h["id"] for h in rule["history"]] == ["NTAP-MINRA-ON-OLTP", "NTAP-MINRA-OFF"]
    assert rule["cited_sources"][0]["id"] == "tr-3322"
    assert client.get("/api/v1/knowledge/rules/NOPE-1").status_code == 404


def test_catalog(client: TestClient) -> None:
    catalog = client.get("/api/v1/catalog").json()
    assert "9u5" in [r["id"] for r in catalog["os"]["solaris"]["releases"]]
    assert catalog["os"]["aix"]["arches"] == ["power"]
    assert [n["gbps"] for n in catalog["network"]["nic_speeds"]] == [1, 10, 25, 40, 100]
    assert "tr3322-lab" in [p["id"] for p in catalog["presets"]]
    assert any(c["rule"] == "DNFS-REQUIRES-11G" for c in catalog["constraints"])


def test_catalog_serves_every_answer_and_derives_its_choice_lists_from_them(
    client: TestClient,
) -> None:
    catalog = client.get("/api/v1/catalog").json()
    fields = {f["path"]: f for f in catalog["fields"]}
    rtt = fields["network.rtt_us"]
    assert (rtt["label"], rtt["unit"], rtt["type"], rtt["optional"]) == (
        "Measured round trip",
        "µs",
        "number",
        True,
    )
    assert fields["handover.svm"]["shown_when"] == {"filer.vendor": ["netapp", "aws_fsxn"]}
    workload = fields["oracle.workload"]["options"]
    assert [w["id"] for w in catalog["workloads"]] == [o["value"] for o in workload]
    assert [v["label"] for v in catalog["nfs_versions"]] == ["NFSv3", "NFSv4.1"]


def test_compare_dates(client: TestClient) -> None:
    response = client.post(
        "/api/v1/plans/compare",
        json={"platform": EXAMPLE_PLATFORM, "from_as_of": "2005-06-01"},
    )
    changes = response.json()["changes"]
    minra = next(c for c in changes if c["item"] == "setting" and "minra" in c["key"])
    assert (minra["before"], minra["after"]) == ("on", "off")
    assert "superseded by NTAP-MINRA-OFF" in minra["reason"]


def test_compare_names_the_releases_that_did_not_exist_yet_on_the_earlier_date(
    client: TestClient,
) -> None:
    presets = {p["id"]: p["platform"] for p in client.get("/api/v1/catalog").json()["presets"]}
    current = presets["current-linux-ontap"]  # Oracle Linux 9, Oracle 19c, ONTAP 9.14.1
    response = client.post(
        "/api/v1/plans/compare", json={"platform": current, "from_as_of": "2007-06-01"}
    )
    missing = {m["label"]: m["available"] for m in response.json()["not_yet_released"]}
    assert missing["Oracle Database 19c"] == "on 25 April 2019"
    assert missing["ONTAP 9.14.1"] == "in January 2024"
    assert "Oracle Linux 9" in missing
    later = client.post(
        "/api/v1/plans/compare", json={"platform": current, "from_as_of": "2026-01-01"}
    )
    assert later.json()["not_yet_released"] == []
    lab = client.post(
        "/api/v1/plans/compare", json={"platform": EXAMPLE_PLATFORM, "from_as_of": "2005-06-01"}
    )
    assert lab.json()["not_yet_released"] == []  # Solaris 9, Oracle 9.2 and ONTAP 6.5 existed


def test_openapi_has_examples(client: TestClient) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    body = spec["paths"]["/api/v1/plans"]["post"]["requestBody"]["content"]["application/json"]
    assert "tr3322" in body["examples"]


def test_unknown_api_path_and_methods(client: TestClient) -> None:
    assert client.get("/api/v1/nothing").status_code == 404
    assert client.put("/api/v1/health").status_code == 405


def test_unsaved_files_are_rendered_once_per_platform(client: TestClient) -> None:
    first = client.post("/api/v1/plans/bundle", json=EXAMPLE_PLATFORM)
    again = client.post("/api/v1/plans/bundle", json=EXAMPLE_PLATFORM)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    other_body = {**EXAMPLE_PLATFORM, "layout": {**EXAMPLE_PLATFORM["layout"], "db_name": "TEST"}}
    other = client.post("/api/v1/plans/bundle", json=other_body)
    assert 'filename="nasplan-test-' in other.headers["content-disposition"]
    assert 'filename="nasplan-prod-' in first.headers["content-disposition"]
    html = client.post("/api/v1/plans/runbook?format=html", json=EXAMPLE_PLATFORM)
    md = client.post("/api/v1/plans/runbook", json=EXAMPLE_PLATFORM)
    assert html.headers["content-type"].startswith("text/html")
    assert md.headers["content-type"].startswith("text/markdown") and "\n# Runbook: PROD" in md.text
