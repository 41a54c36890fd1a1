"""The local web explorer behind ``fastttt serve``: a Starlette app (:mod:`fastttt.views.web.app`),
its background jobs (:mod:`fastttt.views.web.jobs`) and a plain HTML/JS/SVG page (``static/``).

Needs the ``web`` extra (``pip install 'fastttt[web]'``: Starlette and uvicorn).
"""
