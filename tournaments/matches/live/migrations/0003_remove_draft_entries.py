from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("live", "0002_draft_entry_rows")]

    operations = [migrations.RemoveField(model_name="draft", name="entries")]
