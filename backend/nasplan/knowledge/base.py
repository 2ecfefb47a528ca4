"""The loaded knowledge base: every file of ``knowledge/`` validated and indexed."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from nasplan.domain.platform import FilerVendor, OsName
from nasplan.knowledge.catalog import (
    ExpectationInputs,
    Fact,
    FilerCatalog,
    FilerFamilyEntry,
    LayoutCatalog,
    MeasuredGain,
    MountOptionEntry,
    NetworkCatalog,
    OracleCatalog,
    OsCeiling,
    OsDefault,
    OsEntry,
    Preset,
    SizingInputs,
)
from nasplan.knowledge.client_options import ClientOptions
from nasplan.knowledge.fields import AnswerField
from nasplan.knowledge.lifecycle import LifecycleCatalog
from nasplan.knowledge.schema import Conflict, KbRelease, Rule, Source


@dataclass(frozen=True, eq=False)
class KnowledgeBase:
    release: KbRelease
    changelog: str
    rules: dict[str, Rule]
    sources: dict[str, Source]
    conflicts: list[Conflict]
    facts: list[Fact]
    os: dict[OsName, OsEntry]
    oracle: OracleCatalog
    filers: FilerCatalog
    network: NetworkCatalog
    layout: LayoutCatalog
    mount_options: list[MountOptionEntry]
    presets: dict[str, Preset]
    expectations: ExpectationInputs
    sizing: SizingInputs
    lifecycle: LifecycleCatalog
    gains: list[MeasuredGain] = field(default_factory=list)
    # Every platform answer's words and form (catalog/fields.yaml), in the wizard's order.
    fields: list[AnswerField] = field(default_factory=list)
    os_defaults: list[OsDefault] = field(default_factory=list)
    os_ceilings: list[OsCeiling] = field(default_factory=list)
    client_options: list[ClientOptions] = field(default_factory=list)
    # rule id -> ids of the rules that supersede it
    superseded_by: dict[str, list[str]] = field(default_factory=dict)

    @property
    def version(self) -> str:
        return self.release.version

    @cached_property
    def option_index(self) -> dict[tuple[OsName, str], MountOptionEntry]:
        """(os, option name before any `=`) -> vocabulary entry, aliases included."""
        index: dict[tuple[OsName, str], MountOptionEntry] = {}
        for entry in self.mount_options:
            for os_name in entry.os:
                for name in (entry.token, *entry.aliases):
                    index[(os_name, name)] = entry
        return index

    @cached_property
    def option_spellings(self) -> dict[str, dict[str, list[OsName]]]:
        """An option as the plan writes it (``proto=tcp``) -> each word that stands for it on
        some OS (Linux's ``tcp``) -> the OSes that write it so."""
        index: dict[str, dict[str, list[OsName]]] = {}
        for entry in self.mount_options:
            if entry.equals is not None:
                for name in (entry.token, *entry.aliases):
                    index.setdefault(entry.equals, {}).setdefault(name, []).extend(entry.os)
        return index

    @cached_property
    def _os_defaults_by_key(self) -> dict[tuple[OsName, str, str], list[OsDefault]]:
        index: dict[tuple[OsName, str, str], list[OsDefault]] = {}
        for default in self.os_defaults:
            index.setdefault((default.os, default.mechanism, default.key), []).append(default)
        return index

    def os_default(
        self, os_name: OsName, release: str, mechanism: str, key: str
    ) -> OsDefault | None:
        """What the OS release does when the setting is left out, when the catalog says."""
        for default in self._os_defaults_by_key.get((os_name, mechanism, key), []):
            if not default.releases or release in default.releases:
                return default
        return None

    def client_of(self, os_name: OsName, release: str) -> ClientOptions | None:
        """The options the OS release's NFS mount takes, where it refuses any other."""
        return next(
            (
                c
                for c in self.client_options
                if c.os == os_name and (not c.releases or release in c.releases)
            ),
            None,
        )

    def setting_keys(self) -> dict[str, list[str]]:
        """Every key any rule sets, by mechanism (sysctl, ndd, ...): what a collector reads."""
        keys: dict[str, set[str]] = {}
        for rule in self.rules.values():
            for setting in rule.effects.settings:
                keys.setdefault(setting.mechanism, set()).add(setting.key)
        return {mechanism: sorted(found) for mechanism, found in keys.items()}

    def filer_family(self, vendor: FilerVendor, family_id: str) -> FilerFamilyEntry:
        return next(f for f in self.filers.vendors[vendor].families if f.id == family_id)
