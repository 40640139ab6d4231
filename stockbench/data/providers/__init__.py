"""Adapters for the public market-data services, behind one Provider port (see base.py)."""

from __future__ import annotations

from stockbench.data.http import FetchError, HostPolicy, HttpClient, Target
from stockbench.data.providers.base import PayloadError, Provider, ProviderBase
from stockbench.data.providers.cninfo import CninfoEndpoints, CninfoProvider
from stockbench.data.providers.eastmoney import EastmoneyEndpoints, EastmoneyProvider
from stockbench.data.providers.sina import SinaEndpoints, SinaProvider
from stockbench.data.providers.tencent import TencentEndpoints, TencentProvider


def default_providers(http: HttpClient) -> dict[str, Provider]:
    """One instance of every adapter, by name, sharing one polite HTTP client."""
    providers: list[Provider] = [
        TencentProvider(http),
        SinaProvider(http),
        EastmoneyProvider(http),
        CninfoProvider(http),
    ]
    return {provider.name: provider for provider in providers}


__all__ = [
    "CninfoEndpoints",
    "CninfoProvider",
    "EastmoneyEndpoints",
    "EastmoneyProvider",
    "FetchError",
    "HostPolicy",
    "HttpClient",
    "PayloadError",
    "Provider",
    "ProviderBase",
    "SinaEndpoints",
    "SinaProvider",
    "Target",
    "TencentEndpoints",
    "TencentProvider",
    "default_providers",
]
