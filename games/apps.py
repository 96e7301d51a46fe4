from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Indulgence games"

    def ready(self) -> None:
        # Registers the Celery tasks in every process: the writers queue them by name
        # (games.jobs) and never import games.tasks themselves.
        from games import tasks  # noqa: F401
