from fastapi import APIRouter

from nasplan.api.deps import KbDep
from nasplan.api.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Health)
def health(kb: KbDep) -> Health:
    return Health(status="ok", kb_version=kb.version, rules=len(kb.rules))
