"""A club and its members. Roles: the owner (may name organizers), organizers (run the club's
tournaments and seasons, add members) and members."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.fields import country_field


class Club(models.Model):
    name = models.CharField(_("name"), max_length=150, unique=True)
    slug = models.SlugField(_("slug"), max_length=150, unique=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = country_field()
    description = models.TextField(_("description"), blank=True, max_length=5000)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: Raised by every write to the club (members, seasons): its page is cached by it.
    revision = models.PositiveIntegerField(_("revision"), default=0, editable=False)

    class Meta:
        app_label = "tournaments"  # the tables and migrations of the tournaments app
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ORGANIZER = "organizer", _("Organizer")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="club_memberships",
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["club", "role", "user__username"]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.get_role_display()})"

    @property
    def runs_events(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ORGANIZER)
