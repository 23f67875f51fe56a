from django.contrib import admin

from outbox.models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """What is waiting for the broker: during an outage, the messages that the relay
    keeps handing over, and the broker's last refusal."""

    list_display = ("pk", "task", "created_at", "eta", "key", "handing_until", "published_at", "attempts", "last_error")
    list_filter = ("task",)
    search_fields = ("task", "key")
    readonly_fields = [field.name for field in Message._meta.fields]

    def has_add_permission(self, request):
        return False
