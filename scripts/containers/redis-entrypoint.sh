#!/bin/sh
# As in the official image: redis-server, whatever options compose passes, accepts connections from the
# other containers of its private network (protected mode would refuse everything but loopback).
if [ "${1:-}" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no "$@"
fi
exec "$@"
