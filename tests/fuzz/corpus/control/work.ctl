filter meter
newjob fs
add fs n1 fsstart --ri 1 --dm 1 --bm 2 --di 2
setflags fs send receive
startjob fs
wait fs 60
newjob users
add users n1 fsuser seq /a 20000 1
add users n2 fsuser rand /b 20000 30 2
setflags users all
startjob users
wait users 120
newjob tsp
add tsp n2 tsp -v 3 -p 2 --nodes 1,2 -n 8 -s 11
setflags tsp send receive
startjob tsp
wait tsp 120
getlog meter work.log
