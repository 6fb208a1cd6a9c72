# every command once, as a session might use them
help
help setflags
filter meter
filter meter meter.log
filter
newjob j1 meter
add j1 n1 pp serve ping 40 < ping.in
addprocess j1 n2 pp call ping 40 100
acquire j1 n2 5
setflags j1 send receive -queued all -all fork termproc
jobs
jobs j1
startjob j1
> hello from the process
> no newline at the end
input j1 j1.2 a line of text
endinput j1 j1.2
stopjob j1
wait j1 1
removeprocess j1 j1.1
sink out.txt
jobs j1
sink
source all-commands.ctl
removejob j1
die
die
