"""The games in the admin, above all those that need an operator: a game whose
deadline failed, whose state could not be read, or whose snapshot differs from its
log is marked (``services.attention.game_attention_mark``) and listed under "needs attention"."""

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import ChatMessage, Game
from games.services import moderation


class NeedsAttention(admin.SimpleListFilter):
    title = _("needs attention")
    parameter_name = "attention"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(attention="")
        if self.value() == "no":
            return queryset.filter(attention="")
        return queryset


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "status", "version", "deadline_at", "attention", "attention_at")
    list_filter = (NeedsAttention, "status", "kind")
    search_fields = ("=pk",)
    ordering = ("-attention_at", "-created_at")
    actions = ["clear_attention"]
    # Read-only: a game changes through its services and its log, never by hand here.
    # Never the snapshot: the engine state holds every hand and the court order.
    readonly_fields = [f.name for f in Game._meta.fields if f.name not in ("attention", "attention_at", "snapshot")]
    exclude = ("snapshot",)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Clear the attention mark of the selected games"))
    def clear_attention(self, request, queryset):
        cleared = queryset.exclude(attention="").update(attention="", attention_at=None)
        self.message_user(
            request, ngettext("Cleared %(count)d game.", "Cleared %(count)d games.", cleared) % {"count": cleared}
        )


class Reported(admin.SimpleListFilter):
    title = _("reported")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(reports__isnull=False).distinct()
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Chat messages, the reported ones first to hand: staff hide what breaks the
    site's rules (nobody reads a hidden message any more)."""

    list_display = ("pk", "game", "user", "audience", "text", "created_at", "hidden_at", "report_count")
    list_filter = (Reported, "audience", "hidden_at")
    search_fields = ("=game__pk", "text")
    actions = ["hide"]
    readonly_fields = ("game", "user", "audience", "text", "created_at", "hidden_at")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(report_count=Count("reports"))

    @admin.display(description=_("reports"), ordering="report_count")
    def report_count(self, message):
        return message.report_count

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Hide the selected messages from everyone"))
    def hide(self, request, queryset):
        hidden = moderation.chat_hide(messages=queryset)
        self.message_user(
            request, ngettext("Hid %(count)d message.", "Hid %(count)d messages.", hidden) % {"count": hidden}
        )
