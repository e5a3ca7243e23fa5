"""rights-preflight: the Python buyer of the Rights Preflight Service's signed RSL rights reports.

Every buyer duty of the TypeScript buyer (docs/wire.md): pins, the quote and offer checks, the signed offer
receipt, the request-bound nonce, the encrypted checkpoint written before the payment is sent, resume with the
same authorization, verification of report, evidence, delivery proof and settlement binding, hold, preflight,
the ingestion gate (sign-in proof and payment intent), revalidation, the signals hold, offline verify and
refund requests. One logic core, a sync face (:class:`Buyer`) and an async face (:class:`AsyncBuyer`).

Example, against ``npm start`` in development (it writes ``data/buyer.env``)::

    from rights_preflight import Buyer, Pins, read_env_file
    env = read_env_file("data/buyer.env")
    with Buyer(env["RIGHTS_SERVICE_URL"], env["BUYER_PRIVATE_KEY"], Pins.from_env(env)) as buyer:
        r = buyer.buy_report("https://open.demo.example/articles/climate", "ai-input")
        print(r.status, r.classifications if r.status == "delivered" else r)
"""

from .binding import bound_nonce, input_sha256, purchase_id
from .buyer import AsyncBuyer, Buyer
from .checkpoint_store import (
    ClaimKeepingStore,
    EncryptedCheckpointStore,
    FileBoxStore,
    MemoryBoxStore,
    cli_checkpoint_store,
    file_checkpoint_store,
    memory_checkpoint_store,
)
from .env_file import read_env_file
from .errors import BuyerRefused
from .pins import Pins
from .results import BuyResult, Delivered, Held, ResumePolicy, Unavailable
from .signals import describe_signals, ingestion_hold
from .verify import VerifyResult, checkpoints_in, verify_checkpoint, verify_paid_report, verify_saved_report

__all__ = [
    "AsyncBuyer",
    "Buyer",
    "BuyerRefused",
    "BuyResult",
    "ClaimKeepingStore",
    "Delivered",
    "EncryptedCheckpointStore",
    "FileBoxStore",
    "Held",
    "MemoryBoxStore",
    "Pins",
    "ResumePolicy",
    "Unavailable",
    "VerifyResult",
    "bound_nonce",
    "checkpoints_in",
    "cli_checkpoint_store",
    "describe_signals",
    "file_checkpoint_store",
    "ingestion_hold",
    "input_sha256",
    "memory_checkpoint_store",
    "purchase_id",
    "read_env_file",
    "verify_checkpoint",
    "verify_paid_report",
    "verify_saved_report",
]
