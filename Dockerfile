# wordfeud-bot as a container: the daemon (`wordfeud-bot run`) as a non-root user, the state on a
# volume, the secrets from the environment, and a HEALTHCHECK on the status page's /healthz.
#
#   docker build -t wordfeud-bot .
#   docker run -d --name wordfeud-bot -e WORDFEUD_EMAIL -e WORDFEUD_PASSWORD \
#       -v wordfeud-bot-data:/data wordfeud-bot
#
# The build stage compiles the C move generator into a wheel; the image carries no compiler.

FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && useradd --create-home --uid 10001 wordfeud \
    && mkdir -p /data /etc/wordfeud-bot && chown wordfeud /data
COPY --chown=wordfeud:wordfeud --chmod=0600 config/docker.toml /etc/wordfeud-bot/bot.toml
ENV WORDFEUD_BOT_DATA=/data \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
USER wordfeud
EXPOSE 8765
HEALTHCHECK --interval=60s --timeout=5s --start-period=120s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4); sys.exit(0)"]
ENTRYPOINT ["wordfeud-bot"]
CMD ["run", "--config", "/etc/wordfeud-bot/bot.toml"]
