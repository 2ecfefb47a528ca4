"""The syntax of every text a platform carries: one type per kind of name or address.

Everything here ends up inside generated shell scripts and config files, so the syntax is
strict. Each type publishes its pattern and the message that says how to fix a value in the
JSON schema (``x-error``), and checks the value with the same message.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated

from pydantic import AfterValidator, StringConstraints, WithJsonSchema

# Everything below ends up inside generated shell scripts and config files, so the syntax is
# strict: a single RFC 1123 host name (or dotted IPv4), an Oracle-style identifier, an
# interface name. Nothing else gets through. The pattern is published in the JSON schema (for
# clients) and checked here with a message that says how to fix the value.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME_PATTERN = rf"^{_LABEL}(?:\.{_LABEL})*$"
DB_NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_]{0,7}$"
# Interface and port names: Linux takes up to 15 bytes (IFNAMSIZ) and VLANs are conventionally
# named like eth0.100 (ip-link(8)); ONTAP names a VLAN port <port>-<vlan id>, e.g. e1c-80 and
# an interface group a0a ("Learn about ONTAP network port configuration", docs.netapp.com). The
# added _ . - are as safe unquoted as in the storage names below.
INTERFACE_PATTERN = r"^[A-Za-z][A-Za-z0-9_.-]{0,14}$"
RELEASE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$"
ORACLE_VERSION_PATTERN = r"^\d{1,2}(\.(\d{1,3}|x)){0,4}$"
MODEL_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,39}$"
# ONTAP names an SVM, aggregate, export policy or broadcast domain with letters, digits, _ - .;
# nasplan takes the subset that is safe unquoted in a shell, a YAML file and a filer console.
STORAGE_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.-]{0,46}$"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
IPV4_PATTERN = rf"^{_OCTET}(?:\.{_OCTET}){{3}}$"
IPV4_CIDR_PATTERN = rf"^{_OCTET}(?:\.{_OCTET}){{3}}/(?:3[0-2]|[12]?[0-9])$"


def _syntax(pattern: str, message: str) -> AfterValidator:
    compiled = re.compile(pattern)

    def check(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValueError(message)
        return value

    return AfterValidator(check)


def _schema(pattern: str, max_length: int, message: str) -> WithJsonSchema:
    # x-error: the message a client shows when the value does not fit the pattern, the same
    # one the API answers with (the front end's checks are generated from this schema).
    return WithJsonSchema(
        {"type": "string", "pattern": pattern, "maxLength": max_length, "x-error": message}
    )


HOST_NAME_ERROR = (
    "use a host name such as filer01 or filer01.example.com: letters, digits and hyphens "
    "separated by dots, no spaces"
)
HostName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=253),
    _schema(HOSTNAME_PATTERN, 253, HOST_NAME_ERROR),
    _syntax(HOSTNAME_PATTERN, HOST_NAME_ERROR),
]
DB_NAME_ERROR = "use 1-8 letters, digits or _ starting with a letter, e.g. PROD"
DbName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=8),
    _schema(DB_NAME_PATTERN, 8, DB_NAME_ERROR),
    _syntax(DB_NAME_PATTERN, DB_NAME_ERROR),
]
INTERFACE_NAME_ERROR = (
    "use an interface or port name such as eth1, bond0.100, e0a or a0a-100: a letter, then up "
    "to 14 letters, digits, _ . or -"
)
InterfaceName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=15),
    _schema(INTERFACE_PATTERN, 15, INTERFACE_NAME_ERROR),
    _syntax(INTERFACE_PATTERN, INTERFACE_NAME_ERROR),
]
RELEASE_TOKEN_ERROR = "use a release name such as 9u5, rhel8, 7.3 or 9.14.1"
ReleaseToken = Annotated[
    str,
    StringConstraints(min_length=1, max_length=20),
    _schema(RELEASE_PATTERN, 20, RELEASE_TOKEN_ERROR),
    _syntax(RELEASE_PATTERN, RELEASE_TOKEN_ERROR),
]
ORACLE_VERSION_ERROR = "use a dotted release such as 9.2.0.4, 11.2.0.4 or 19.21"
OracleVersion = Annotated[
    str,
    StringConstraints(min_length=1, max_length=20),
    _schema(ORACLE_VERSION_PATTERN, 20, ORACLE_VERSION_ERROR),
    _syntax(ORACLE_VERSION_PATTERN, ORACLE_VERSION_ERROR),
]
MODEL_NAME_ERROR = "use letters, digits, spaces and . _ / - only"
ModelName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=40),
    _schema(MODEL_PATTERN, 40, MODEL_NAME_ERROR),
    _syntax(MODEL_PATTERN, MODEL_NAME_ERROR),
]


def _usable_address(value: str) -> str:
    address = ipaddress.IPv4Address(value)
    if address.is_unspecified or address.is_multicast or address.is_loopback:
        raise ValueError(
            f"{value} cannot be a storage address (unspecified, multicast or loopback)"
        )
    return value


def _interface_address(value: str) -> str:
    interface = ipaddress.IPv4Interface(value)
    _usable_address(str(interface.ip))
    network = interface.network
    if network.prefixlen < 31 and interface.ip in (
        network.network_address,
        network.broadcast_address,
    ):
        raise ValueError(f"{value} is the network or broadcast address of {network}")
    return value


def _network(value: str) -> str:
    try:
        ipaddress.IPv4Network(value)
    except ValueError:
        exact = ipaddress.IPv4Interface(value).network
        raise ValueError(f"{value} has host bits set: the network is {exact}") from None
    return value


STORAGE_NAME_ERROR = (
    "use a name such as svm_prod or aggr1: letters, digits, _ . - starting with a letter or _"
)
StorageName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=47),
    _schema(STORAGE_NAME_PATTERN, 47, STORAGE_NAME_ERROR),
    _syntax(STORAGE_NAME_PATTERN, STORAGE_NAME_ERROR),
]
# The FSx API's StorageVirtualMachineId (botocore's fsx model: 21 characters, this pattern).
FSX_SVM_ID_PATTERN = r"^svm-[0-9a-f]{17}$"
FSX_SVM_ID_ERROR = "use the SVM's id as FSx shows it: svm- and 17 hexadecimal digits"
FsxSvmId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=21),
    _schema(FSX_SVM_ID_PATTERN, 21, FSX_SVM_ID_ERROR),
    _syntax(FSX_SVM_ID_PATTERN, FSX_SVM_ID_ERROR),
]
IPV4_TEXT_ERROR = "use a dotted IPv4 address such as 192.168.10.21"
IPv4Text = Annotated[
    str,
    StringConstraints(min_length=7, max_length=15),
    _schema(IPV4_PATTERN, 15, IPV4_TEXT_ERROR),
    _syntax(IPV4_PATTERN, IPV4_TEXT_ERROR),
    AfterValidator(_usable_address),
]
IPV4_INTERFACE_ERROR = "use the address with its prefix length, such as 192.168.10.11/24"
IPv4InterfaceText = Annotated[
    str,
    StringConstraints(min_length=9, max_length=18),
    _schema(IPV4_CIDR_PATTERN, 18, IPV4_INTERFACE_ERROR),
    _syntax(IPV4_CIDR_PATTERN, IPV4_INTERFACE_ERROR),
    AfterValidator(_interface_address),
]
IPV4_NETWORK_TEXT_ERROR = "use a network in CIDR form, such as 192.168.10.0/24"
IPv4NetworkText = Annotated[
    str,
    StringConstraints(min_length=9, max_length=18),
    _schema(IPV4_CIDR_PATTERN, 18, IPV4_NETWORK_TEXT_ERROR),
    _syntax(IPV4_CIDR_PATTERN, IPV4_NETWORK_TEXT_ERROR),
    AfterValidator(_network),
]

# A volume's name on the filer, as the plan writes it (the database name and the volume's part).
VolumeName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_]{1,64}$")]
