FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.lock .
RUN pip install --no-cache-dir -r requirements.lock
COPY . .
RUN DJANGO_ENV=production SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input
RUN useradd --create-home indulgence && mkdir -p /app/var && chown indulgence /app/var
USER indulgence
EXPOSE 8000 8001
