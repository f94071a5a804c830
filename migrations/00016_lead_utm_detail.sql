-- A lead's creative and keyword (issue 29): the UTM content and term of the session that sent the form,
-- shown on the lead card, the table view and the CSV. The lead form does not send them: they are taken, when
-- the lead is stored, from the session's latest page view before it (src/db/leads.ts insertLead), whose
-- visit report carries the five UTM values. Leads stored before this migration get them the same way, from
-- the page views retention still keeps.
alter table leads
  add column utm_content text,
  add column utm_term text;

update leads l set utm_content = v.utm_content, utm_term = v.utm_term
  from (select distinct on (session_id) session_id, utm_content, utm_term
          from visits
         where session_id <> '' and (utm_content is not null or utm_term is not null)
         order by session_id, occurred_at desc) v
 where l.session_id = v.session_id;
