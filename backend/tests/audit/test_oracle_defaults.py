"""db_file_multiblock_read_count written out at the value Oracle picks by itself is not a
change to make (corpus case aut-cunningham-dwprd-show-parameter-2016): from 10g Release 2 the
unset parameter gives the largest efficient read, 1 MB on most platforms, in blocks of the
database's block size (Oracle Database Reference 10.2, DB_FILE_MULTIBLOCK_READ_COUNT), so 128
with 8 KB blocks is what leaving it out gives. Any other count is still raised."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.platforms import linux_ontap


def _mbrc(client: TestClient, pfile: str) -> list[dict[str, str]]:
    body = {"platform": linux_ontap(), "pastes": [{"name": "init.ora", "text": pfile}]}
    response = client.post("/api/v1/audits", json=body)
    assert response.status_code == 200, response.text
    return [f for f in response.json()["findings"] if "db_file_multiblock_read_count" in f["about"]]


@pytest.mark.parametrize(
    ("pfile", "severity"),
    [
        ("*.db_block_size=8192\n*.db_file_multiblock_read_count=128\n", "info"),
        ("*.db_block_size=16384\n*.db_file_multiblock_read_count=64\n", "info"),
        # No block size shown: Oracle's default block size, 8 KB.
        ("*.db_name=ORCL\n*.db_file_multiblock_read_count=128\n", "info"),
        ("*.db_block_size=8192\n*.db_file_multiblock_read_count=32\n", "warning"),
        ("*.db_block_size=16384\n*.db_file_multiblock_read_count=128\n", "warning"),
    ],
)
def test_a_count_that_reads_what_unset_reads_is_an_info(
    client: TestClient, pfile: str, severity: str
) -> None:
    found = _mbrc(client, pfile)
    assert [f["severity"] for f in found] == [severity], found
    if severity == "info":
        message = found[0]["message"]
        assert "1048576 bytes" in message and "leaving it out" in message, message
