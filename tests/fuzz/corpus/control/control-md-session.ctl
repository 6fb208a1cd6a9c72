filter meter
newjob foo
addprocess foo n1 pp serve ping 40
addprocess foo n2 pp call ping 40 100
setflags foo send receive fork
startjob foo
rmjob foo
getlog meter trace.log
bye
