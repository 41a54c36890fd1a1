"""The local web explorer behind ``fastttt serve``: a Starlette app (:mod:`fastttt.web.app`),
its background jobs (:mod:`fastttt.web.jobs`) and a plain HTML/JS/SVG page (``static/``).

Needs the ``web`` extra (``pip install 'fastttt[web]'``: Starlette and uvicorn).
"""
