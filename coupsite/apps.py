from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """Django's admin, served by the site that asks staff for a second factor."""

    default_site = "coupsite.admin.SecondFactorAdminSite"
