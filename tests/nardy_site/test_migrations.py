"""The models and the migrations agree: a model change without its migration fails here."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_is_missing_a_migration():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
