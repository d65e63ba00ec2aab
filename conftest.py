"""Repository-wide pytest set-up: make nbval's sanitize file path absolute so pytest runs from any folder."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def pytest_configure(config):
    # nbval resolves --nbval-sanitize-with against the working directory; pin it to the repo.
    opt = getattr(config.option, "sanitize_with", None)
    if opt and not Path(opt).is_absolute():
        config.option.sanitize_with = str(ROOT / opt)
