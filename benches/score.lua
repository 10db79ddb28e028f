-- wrk script: POST one four-seat hawaiian-gardens showdown to /api/v1/score.
-- wrk -t2 -c32 -d20s -s benches/score.lua http://127.0.0.1:8080/api/v1/score
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[{"ruleset":"hawaiian-gardens","unit":"5","dealer":2,"rake":{"per_seat":"0.50","jackpot":"0.10"},"seats":[{"seat":1,"stack":"200","front":"Qh Qd 7c","middle":"Js Jh Jd 2s 2h","back":"5s 5h 5d 5c Ad"},{"seat":2,"stack":"12","front":"2c 3d 4h","middle":"6c 7d 8h 9s Tc","back":"Ac Kc Qc Jc 9c"},{"seat":3,"stack":"150","front":"As Ks 3s","middle":"Kh Kd 8d 8c 3h","back":"Th Td Ts 4d 4c"},{"seat":4,"stack":"90","front":"6h 6d 6s","middle":"7h 7s 9h 9d 2d","back":"8s Qs 4s Ah 3c"}]}]]
