#!/bin/bash
# best.sh BIN FILE RUNS : min time per line over RUNS runs
BIN=$1; F=$2; N=${3:-5}
for i in $(seq $N); do $BIN run --profile $F 2>&1 | grep -E "^ +[0-9.]+(ms|s|µs)" ; done | awk '{t=$1; if (t ~ /ms$/) {sub("ms","",t)} else if (t ~ /µs$/) {sub("µs","",t); t=t/1000} else {sub("s","",t); t=t*1000}; $1="";$2=""; k=$0; if (!(k in m) || t<m[k]) m[k]=t; if(!(k in o)) o[k]=++n} END {for (k in m) printf "%d %9.2f ms %s\n", o[k], m[k], k}' | sort -n | cut -d' ' -f2-
