"""POST /api/v1/plans/what-if: variants as patches or platforms, changes, measured gains."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from nasplan.knowledge.base import KnowledgeBase

URL = "/api/v1/plans/what-if"


def _preset(kb: KnowledgeBase, name: str) -> dict[str, Any]:
    return dict(kb.presets[name].platform)


def test_knfs_to_dnfs_on_the_fawcett_lab_shows_the_measured_scan(
    client: TestClient, kb: KnowledgeBase
) -> None:
    base = _preset(kb, "fawcett-lab")
    base["oracle"] = {**base["oracle"], "dnfs": False}
    answer = client.post(
        URL,
        json={
            "base": base,
            "variants": [{"label": "Direct NFS", "patch": {"oracle": {"dnfs": True}}}],
        },
    )
    assert answer.status_code == 200, answer.text
    variant = answer.json()["variants"][0]
    gains = {g["id"]: g for g in variant["measured_gains"]}
    scan = gains["GAIN-DNFS-SCAN"]
    assert "16.18 s" in scan["figure"] and "6.36 s" in scan["figure"]
    assert scan["source"]["id"] == "fawcett-dnfs" and "Solaris 10 u8" in scan["measured_under"]
    assert "GAIN-DNFS-OLTP-SCALING" in gains
    assert not scan["reverse"]
    assert any(c["item"] == "platform" and c["key"] == "oracle.dnfs" for c in variant["changes"])
    side = {pair["field"]: pair for pair in variant["expectations"]}
    assert side["planned_client"]["variant"] == "Direct NFS over one path"
    assert side["planned_scan_mb_s"]["variant"] > side["planned_scan_mb_s"]["base"]
    assert answer.json()["base"]["platform"]["oracle"]["dnfs"] is False


def test_a_variant_that_undoes_a_measured_change_gets_the_measurement_the_other_way(
    client: TestClient, kb: KnowledgeBase
) -> None:
    dnfs = _preset(kb, "fawcett-lab")  # Direct NFS, as measured
    jumbo = _preset(kb, "tr3496-lab")
    answer = client.post(
        URL,
        json={
            "base": dnfs,
            "variants": [{"label": "kernel NFS", "patch": {"oracle": {"dnfs": False}}}],
        },
    )
    assert answer.status_code == 200, answer.text
    gains = {g["id"]: g for g in answer.json()["variants"][0]["measured_gains"]}
    assert gains["GAIN-DNFS-SCAN"]["reverse"] is True
    assert gains["GAIN-DNFS-OLTP-SCALING"]["reverse"] is True
    assert jumbo["network"]["jumbo_frames"] is True
    no_jumbo = client.post(
        URL,
        json={
            "base": jumbo,
            "variants": [{"label": "no jumbo", "patch": {"network": {"jumbo_frames": False}}}],
        },
    ).json()["variants"][0]["measured_gains"]
    assert [(g["id"], g["reverse"]) for g in no_jumbo] == [("GAIN-JUMBO-OLTP", True)]


def test_fewer_paths_is_the_multipath_measurement_reversed(
    client: TestClient, kb: KnowledgeBase
) -> None:
    base = _preset(kb, "current-linux-ontap")
    one = client.post(
        URL,
        json={
            "base": base,
            "variants": [{"label": "one path", "patch": {"network": {"nic_count": 1}}}],
        },
    ).json()["variants"][0]["measured_gains"]
    assert [(g["id"], g["reverse"]) for g in one] == [("GAIN-MULTIPATH-SCAN", True)]


def test_variants_as_whole_platforms_and_gains_only_for_what_changed(
    client: TestClient, kb: KnowledgeBase
) -> None:
    base = _preset(kb, "current-linux-ontap")
    more_paths = {**base, "network": {**base["network"], "nic_count": 4}}
    answer = client.post(
        URL,
        json={
            "base": base,
            "variants": [
                {"label": "four paths", "platform": more_paths},
                {"label": "same", "patch": {}},
            ],
        },
    )
    assert answer.status_code == 200, answer.text
    four, same = answer.json()["variants"]
    assert [g["id"] for g in four["measured_gains"]] == ["GAIN-MULTIPATH-SCAN"]
    assert same["measured_gains"] == [] and same["changes"] == []


def test_an_invalid_variant_is_422_naming_the_field_in_that_variant(
    client: TestClient, kb: KnowledgeBase
) -> None:
    base = _preset(kb, "current-linux-ontap")
    answer = client.post(
        URL,
        json={
            "base": base,
            "variants": [
                {"label": "ok", "patch": {"network": {"jumbo_frames": False}}},
                {"label": "bad", "patch": {"network": {"nic_gbps": 3}}},
            ],
        },
    )
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == [
        "body",
        "variants",
        1,
        "patch",
        "network",
        "nic_gbps",
    ]


def test_a_variant_gives_a_patch_or_a_platform_not_both(
    client: TestClient, kb: KnowledgeBase
) -> None:
    base = _preset(kb, "current-linux-ontap")
    both = client.post(
        URL, json={"base": base, "variants": [{"label": "x", "patch": {}, "platform": base}]}
    )
    neither = client.post(URL, json={"base": base, "variants": [{"label": "x"}]})
    none = client.post(URL, json={"base": base, "variants": []})
    for answer in (both, neither, none):
        assert answer.status_code == 422
        assert answer.json()["detail"][0]["loc"][:2] == ["body", "variants"]
