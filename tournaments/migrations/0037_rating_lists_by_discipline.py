"""Each discipline is rated on a list of its own (issue 48): a rating list is keyed by its system
and discipline, not by its game and whether it is the pairs' list.

Each list takes the discipline of its game (the pairs' list: Short Nardy pairs). The blitz
tournaments (their discipline was set in 0035 from their clock) were rated on their game's
classical list: their lists are made here, with the officers of the classical one, the holds and
the audit rows of the blitz tournaments move to them, and the replay of both lists is asked for in
the backlog (``RatingBacklog``), as any change of results asks for it: the beat's catch-up
(``ledger.ratings_catch_up``) replays the blitz list from its beginning and the classical one
from the first blitz match it counted, so the classical ratings are again what the classical
results alone make. No replay runs in the migration.
"""

from django.db import migrations, models

BLITZ = ("long-blitz", "short-blitz")


def lists_by_discipline(apps, schema_editor):
    RatingList = apps.get_model("tournaments", "RatingList")
    RatingChange = apps.get_model("tournaments", "RatingChange")
    RatingBacklog = apps.get_model("tournaments", "RatingBacklog")
    RatingHold = apps.get_model("tournaments", "RatingHold")
    RatingAudit = apps.get_model("tournaments", "RatingAudit")
    Tournament = apps.get_model("tournaments", "Tournament")
    for rating_list in RatingList.objects.all():
        rating_list.discipline = "short-pairs" if rating_list.pairs else rating_list.variant
        rating_list.save(update_fields=["discipline"])
    blitz = Tournament.objects.filter(discipline__in=BLITZ)
    for system, variant, discipline in (
        blitz.values_list("rating_system", "variant", "discipline").distinct().order_by()
    ):
        events = blitz.filter(rating_system=system, discipline=discipline)
        classical = RatingList.objects.filter(
            system=system, variant=variant, pairs=False, discipline=variant
        ).first()
        if classical is None:
            continue  # never rated: the list is made when it is first needed
        own = RatingList.objects.create(
            system=system, variant=variant, pairs=False, discipline=discipline
        )
        own.officers.set(classical.officers.all())
        RatingHold.objects.filter(rating_list=classical, match__tournament__in=events).update(
            rating_list=own
        )
        RatingAudit.objects.filter(rating_list=classical).filter(
            models.Q(tournament__in=events) | models.Q(match__tournament__in=events)
        ).update(rating_list=own)
        counted = (
            RatingChange.objects.filter(rating_list=classical, match__tournament__in=events)
            .order_by("finished_at", "match_id")
            .values_list("finished_at", "match_id")
            .first()
        )
        RatingBacklog.objects.create(rating_list=own, finished_at=None, match_id=None)
        if counted is not None:
            RatingBacklog.objects.create(
                rating_list=classical, finished_at=counted[0], match_id=counted[1]
            )


def lists_by_game(apps, schema_editor):
    """Back: the blitz lists go (their tournaments are rated on their game's list again, from
    the beginning, by the catch-up), and each list is keyed by its game and pairs."""
    RatingList = apps.get_model("tournaments", "RatingList")
    RatingBacklog = apps.get_model("tournaments", "RatingBacklog")
    RatingList.objects.filter(discipline__in=BLITZ).delete()
    for rating_list in RatingList.objects.all():
        rating_list.pairs = rating_list.discipline == "short-pairs"
        rating_list.variant = "short" if rating_list.pairs else rating_list.discipline
        rating_list.save(update_fields=["variant", "pairs"])
        RatingBacklog.objects.create(rating_list=rating_list, finished_at=None, match_id=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0036_protocol_example_rank_norms"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratinglist",
            name="discipline",
            field=models.CharField(
                choices=[
                    ("long", "Long Nardy"),
                    ("long-blitz", "Long Nardy blitz"),
                    ("short", "Short Nardy"),
                    ("short-blitz", "Short Nardy blitz"),
                    ("short-pairs", "Short Nardy pairs"),
                ],
                default="long",
                max_length=12,
                verbose_name="discipline",
            ),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(
            model_name="ratinglist",
            name="rating_list_unique_with_pairs",
        ),
        migrations.RunPython(lists_by_discipline, lists_by_game),
        migrations.AlterModelOptions(
            name="ratinglist",
            options={
                "ordering": ["discipline", "system"],
                "verbose_name": "rating list",
                "verbose_name_plural": "rating lists",
            },
        ),
        migrations.RemoveField(
            model_name="ratinglist",
            name="pairs",
        ),
        migrations.RemoveField(
            model_name="ratinglist",
            name="variant",
        ),
        migrations.AddConstraint(
            model_name="ratinglist",
            constraint=models.UniqueConstraint(
                fields=("system", "discipline"), name="rating_list_one_per_discipline"
            ),
        ),
    ]
